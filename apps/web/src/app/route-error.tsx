import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { SomethingWentWrong } from '../components/something-went-wrong';

/** A page that fails to render (or to load) shows the spec's text; the layout around it stays. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return <SomethingWentWrong />;
}
