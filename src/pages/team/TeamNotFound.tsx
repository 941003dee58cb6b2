import { Link } from 'react-router-dom';
import { notFoundCopy as copy } from '@/content/team';
import { TEAM_PATHS } from '#shared/team';

/** A path under `/team` that is no page of the console. */
export function TeamNotFound() {
  return (
    <>
      <h1>{copy.title}</h1>
      <p>{copy.body}</p>
      <p>
        <Link to={TEAM_PATHS.queue}>{copy.back}</Link>
      </p>
    </>
  );
}
