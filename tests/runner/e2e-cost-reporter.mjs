// @ts-check
/**
 * A Playwright reporter that prints what the browser suite asks of the browser: how many of each
 * action (Playwright's API calls, `expect` matchers, hooks and fixtures) the run made and the time
 * they took together, then per spec file its tests and actions. A shorter suite has to make fewer
 * of them (docs/tests.md, "Where Playwright's CPU goes"). Times are wall time summed over workers.
 *
 *   npx playwright test --reporter=dot,./tests/runner/e2e-cost-reporter.mjs
 */

/** @typedef {import('@playwright/test/reporter').Reporter} Reporter */
/** @typedef {import('@playwright/test/reporter').TestCase} TestCase */
/** @typedef {import('@playwright/test/reporter').TestResult} TestResult */
/** @typedef {import('@playwright/test/reporter').TestStep} TestStep */

/** The categories that are the browser's and the runner's work (not the test's own `test.step`s). */
const COUNTED = new Set(['pw:api', 'expect', 'hook', 'fixture']);

/**
 * One name per kind of action: `Click`, `Press "Tab"`, `expect toBeVisible`, `fixture "page"`.
 * @param {TestStep} step
 */
function kindOf(step) {
  if (step.category === 'expect') {
    // Titled `Expect "toBeVisible"`, `Expect "not toBeChecked"`, or by the check's own message.
    const matcher = /^Expect "?(not[ .])?(to\w+)/.exec(step.title);
    if (!matcher) return 'expect (a check with its own message)';
    return `expect ${matcher[1] ? 'not ' : ''}${matcher[2]}`;
  }
  if (step.category === 'pw:api') {
    // "Press \"Tab\"" stays as it is (the key matters); a fill's text and a locator do not.
    if (step.title.startsWith('Press')) return step.title;
    return step.title.replace(/\s*[("'].*$/, '').trim();
  }
  return `${step.category} ${step.title.replace(/^Fixture /, '')}`;
}

/** @param {string | number} value @param {number} width */
const pad = (value, width) => String(value).padStart(width);

/** @implements {Reporter} */
export default class E2eCostReporter {
  constructor() {
    /** @type {Map<string, { count: number, ms: number }>} */
    this.kinds = new Map();
    /** @type {Map<string, { tests: number, actions: number, expects: number, ms: number }>} */
    this.specs = new Map();
  }

  /** @param {string} file */
  spec(file) {
    const name = file.split(/[\\/]/).pop() ?? file;
    let entry = this.specs.get(name);
    if (!entry) this.specs.set(name, (entry = { tests: 0, actions: 0, expects: 0, ms: 0 }));
    return entry;
  }

  /** @param {TestCase} test @param {TestResult} _result @param {TestStep} step */
  onStepEnd(test, _result, step) {
    if (!COUNTED.has(step.category)) return;
    const kind = kindOf(step);
    const entry = this.kinds.get(kind) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += step.duration;
    this.kinds.set(kind, entry);
    const spec = this.spec(test.location.file);
    if (step.category === 'pw:api') spec.actions += 1;
    if (step.category === 'expect') spec.expects += 1;
  }

  /** @param {TestCase} test @param {TestResult} result */
  onTestEnd(test, result) {
    const spec = this.spec(test.location.file);
    spec.tests += 1;
    spec.ms += result.duration;
  }

  onEnd() {
    const kinds = [...this.kinds].sort((a, b) => b[1].ms - a[1].ms);
    const lines = ['', 'What the run asked of the browser (time summed over workers):', ''];
    lines.push(`${pad('count', 7)} ${pad('time s', 8)}  action`);
    for (const [kind, { count, ms }] of kinds.slice(0, 30)) {
      lines.push(`${pad(count, 7)} ${pad((ms / 1000).toFixed(1), 8)}  ${kind}`);
    }
    lines.push('', `${pad('tests', 6)} ${pad('actions', 8)} ${pad('expects', 8)} ${pad('time s', 8)}  spec`);
    for (const [name, spec] of [...this.specs].sort((a, b) => b[1].ms - a[1].ms)) {
      lines.push(
        `${pad(spec.tests, 6)} ${pad(spec.actions, 8)} ${pad(spec.expects, 8)} ${pad((spec.ms / 1000).toFixed(1), 8)}  ${name}`,
      );
    }
    console.log(lines.join('\n'));
  }
}
