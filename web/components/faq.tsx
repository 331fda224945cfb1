/** The subscription view's FAQ: plain <details>, so it opens and closes without JavaScript. */
export function Faq({ supportEmail }: { supportEmail: string }) {
  return (
    <section className="faq" aria-labelledby="faq-title">
      <h2 id="faq-title">Frequently asked questions</h2>
      <details>
        <summary>What is Event Finder?</summary>
        <p>
          Event Finder answers your questions about conferences, meetups and other events. Ask in your own words, optionally point it at a
          website, and read the answer as it is written. Timers repeat a question daily or weekly and keep the results for you.
        </p>
      </details>
      <details>
        <summary>How do I contact support?</summary>
        <p>
          Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>. We usually answer within one working day.
        </p>
      </details>
    </section>
  );
}
