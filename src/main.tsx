import './styles/global.css';

/*
 * The entry. On a built page the inline boot loader imports it at the visitor's first act (or as a
 * part that needs the app nears the viewport), with the page's boot list preloading in parallel
 * (scripts/vite-plugins/boot-loader.ts); on the dev server index.html loads it directly.
 */
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const { start } = await import('./app/start.tsx');
// Evaluating the framework and starting the app run as two tasks, not one: on a slow phone each
// stays shorter, and the browser can handle input and paint in between.
await new Promise((resolve) => setTimeout(resolve, 0));
await start(container);
