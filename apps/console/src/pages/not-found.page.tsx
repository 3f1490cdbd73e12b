import { Link } from 'react-router';
import { usePageTitle } from '@console/lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to your projects</Link>.
      </p>
    </section>
  );
}
