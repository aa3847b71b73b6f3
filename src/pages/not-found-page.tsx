import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '#src/config/messages.ts';
import { ROUTE_PATHS } from '#src/config/site.ts';

export const NOT_FOUND_TEXT = {
  body: "We couldn't find the page you were looking for. It may have moved, or the link may be mistyped.",
} as const;

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <section className="not-found">
      <h1>{MESSAGES.notFoundTitle}</h1>
      <p>{NOT_FOUND_TEXT.body}</p>
      <button type="button" className="button button--primary" onClick={() => navigate(ROUTE_PATHS.home)}>
        {MESSAGES.notFoundButton}
      </button>
    </section>
  );
}
