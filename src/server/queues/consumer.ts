/**
 * The Worker's `queue`, every queue's consumer and a carrier only. Mail jobs are sent (mail/send.ts)
 * or, from a dead-letter queue, kept for the owner (dead-letters.ts). Submissions, from either queue,
 * go to the desk, which keeps them until its round writes them (desk/retry-rule.ts); acked once kept.
 */
import { type DeskNamespace, handToDesk } from '#src/server/desk/desk-client.ts';
import { DEAD_QUEUE_SUFFIX, deadLetter, QUEUE_RETRIES } from '#src/server/desk/retry-rule.ts';
import type { Host } from '#src/server/host.ts';
import { isMailJob } from '#src/server/mail/message.ts';
import { sendMailJobs } from '#src/server/mail/send.ts';
import { checkedMail, MAIL_PROBLEM_RETRY_SECONDS, type WorkerMailEnv } from '#src/server/mail/setup.ts';
import { backoffSeconds, type QueueBatch } from './messages.ts';

export interface ConsumerEnv extends WorkerMailEnv {
  AIRTABLE_DESK: DeskNamespace;
}

export async function consume(batch: QueueBatch, env: ConsumerEnv, host: Host): Promise<void> {
  const dead = batch.queue.endsWith(DEAD_QUEUE_SUFFIX);
  const log = (line: string) => console.log(line);
  const jobs = batch.messages.flatMap((message) =>
    isMailJob(message.body) ? [{ message, job: message.body }] : [],
  );
  if (dead && jobs.length > 0) {
    // Emails whose retries ran out, from the mail's dead-letter queue: kept for the owner to replay.
    const { keepDeadLetter } = await import('./dead-letters.ts');
    for (const { message, job } of jobs) {
      if (env.DEAD_LETTERS)
        await keepDeadLetter(env.DEAD_LETTERS, { mail: job, reason: 'retries exhausted' });
      log(`Mailer: an email ran out of retries; ${env.DEAD_LETTERS ? 'kept as a dead letter' : 'dropped'}`);
      message.ack();
    }
  } else if (jobs.length > 0) {
    const { mail, problem } = checkedMail(env, host.mailer);
    if (problem) {
      // The jobs wait (then go to the dead letters) until the mail settings are fixed.
      for (const { message } of jobs) message.retry({ delaySeconds: MAIL_PROBLEM_RETRY_SECONDS });
    } else if (mail) {
      const sent = await sendMailJobs(jobs, { ...mail, log });
      log(
        `Mailer: ${jobs.length} emails, ${sent.sent} sent, ${sent.alreadySent} already sent, ` +
          `${sent.erased} erased, ${sent.retried} retried, ${sent.deadLettered} dead-lettered`,
      );
    } else {
      // Mail is off (EMAIL unbound): the jobs wait for it, then go to dead letters.
      for (const { message } of jobs) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
      log(`Mailer: ${jobs.length} emails wait: mail is not set up on this Worker`);
    }
  }
  const submissions = batch.messages.filter((message) => !isMailJob(message.body));
  if (submissions.length === 0) return;
  // Kept by the desk, which acks them here once they are in its storage; it checks the mail
  // settings before it writes (storing without consent would rewrite records on a stranger's word).
  try {
    await handToDesk(env.AIRTABLE_DESK, submissions);
    for (const message of submissions) message.ack();
  } catch (error) {
    log(`Airtable writer: ${submissions.length} submissions not handed over (${String(error)}); retried`);
    for (const message of submissions) {
      // The last resort (retry-rule.ts): the dead-letter queue's last delivery, never handed over.
      if (dead && message.attempts > QUEUE_RETRIES) {
        const reason = `the desk could not be reached in ${message.attempts} deliveries from ${batch.queue}`;
        await deadLetter(env.DEAD_LETTERS, message.body, reason, console.error);
        message.ack();
      } else message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}
