/**
 * The site's one server: a Cloudflare Worker run by `vite`/`vite preview` (workerd, Cloudflare's Vite
 * plugin), `wrangler dev` and Cloudflare. It only dispatches, on the host it finds (host.ts): `fetch` to
 * the doors (doors/routes.ts), `queue` to the consumer (queues/consumer.ts; submissions go to the desk,
 * desk/desk.ts, Airtable's one writer), `scheduled` to the hourly team digest or the daily retention.
 * With mail (docs/consent.md, decision 0013), consent applies.
 */
import { deskPacer } from './desk/desk-client.ts';
import { answer, type WorkerEnv } from './doors/routes.ts';
import { hostOf } from './host.ts';
import { checkedMail } from './mail/setup.ts';
import { consume } from './queues/consumer.ts';
import type { QueueBatch } from './queues/messages.ts';

export { AirtableDesk } from './desk/desk.ts';

export default {
  fetch: (request: Request, env: WorkerEnv) => answer(request, env, hostOf(env)),

  queue: (batch: QueueBatch, env: WorkerEnv) => consume(batch, env, hostOf(env)),

  /**
   * The Cron Triggers (wrangler.jsonc `triggers.crons`), by `controller.cron`: hourly (TEAM_DIGEST_CRON),
   * each team's digests of the ended hours (team-inbox.ts) at the scheduled time; any other, the privacy
   * policy's retention (retention-job.ts), through the desk's pacer, logging counts, never emails. Under
   * `wrangler dev --test-scheduled`, GET /__scheduled?cron=…&time=… fires one (run_worker_first lists it).
   */
  async scheduled(controller: { cron: string; scheduledTime: number }, env: WorkerEnv): Promise<void> {
    const teamInbox = await import('./mail/team-inbox.ts');
    if (controller.cron !== teamInbox.TEAM_DIGEST_CRON)
      return (await import('./privacy/retention-job.ts')).runRetentionJob(env, {
        pacer: deskPacer(env.AIRTABLE_DESK),
      });
    const { mail } = checkedMail(env, hostOf(env).mailer);
    if (mail) await teamInbox.queueTeamDigests(mail, new Date(controller.scheduledTime));
  },
};
