/** Placeholder until the schools page sections land (issue 5). */
export function SchoolsPage() {
  return (
    <section className="section">
      <h1>Give a Voice to Every Learner</h1>
    </section>
  );
}
