/**
 * The build's page templates (the forms' answers, the links' page), as the doors read them: from
 * the host (host.ts), once per instance, and filled per request.
 */

/**
 * Fills the build's template at `path`, or answers null when there is none, or one that drifted
 * from its renderer: the caller answers a plain page.
 */
export type PageTemplates = (path: string, fill: (template: string) => string) => Promise<string | null>;

/** The build's page templates, read once per instance when `cache` is on (a deploy's never change). */
export function pageTemplates(
  load: (path: string) => Promise<string | null>,
  { cache = true }: { cache?: boolean } = {},
): PageTemplates {
  const loaded = new Map<string, Promise<string | null>>();
  return async (path: string, fill: (template: string) => string): Promise<string | null> => {
    let template = loaded.get(path);
    if (!template) {
      template = load(path).catch(() => null);
      if (cache) loaded.set(path, template);
    }
    const html = await template;
    if (html === null) return null;
    try {
      return fill(html);
    } catch (error) {
      // A template that drifted from its renderer: the visitor still gets the words.
      console.warn(`Page template ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };
}
