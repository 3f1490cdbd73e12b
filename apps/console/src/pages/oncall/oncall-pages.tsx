import { lazy, ReactElement, Suspense } from 'react';
import { Loading } from '@console/components/error-message';

// The on-call screens are a chunk of their own, loaded with the first of them: most visits to the
// console never open one, and the main bundle stays within its budget (vite.config.mts).

type Page = () => ReactElement;

export function onDemand(load: () => Promise<Page>): Page {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function OnDemandPage() {
    return (
      <Suspense fallback={<Loading what="the page" />}>
        <Loaded />
      </Suspense>
    );
  };
}

export const OncallSchedulesPage = onDemand(() => import('./oncall-schedules.page').then((module) => module.OncallSchedulesPage));
export const OncallSchedulePage = onDemand(() => import('./oncall-schedule.page').then((module) => module.OncallSchedulePage));
export const RotationFormPage = onDemand(() => import('./rotation-form.page').then((module) => module.RotationFormPage));
