// A request the page could not answer: the error's one line and its hint, escaped like everything else.
import { Layout } from "./layout.tsx";

export function ErrorPage({ message, hint }: { message: string; hint: string | null }) {
  return (
    <Layout title="Error" current={null}>
      <p class="error" role="alert">
        {message}
      </p>
      {hint === null ? null : <p class="hint">{hint}</p>}
      <p>
        <a href="/">Back to the sessions</a>
      </p>
    </Layout>
  );
}
