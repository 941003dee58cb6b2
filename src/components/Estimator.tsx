import { useId, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PRICE_PER_1000_QUERIES_USD } from '@/config/site';
import { estimator as copy } from '@/content/estimator';
import { handOverToInviteForm } from '@/estimator/inviteHandOver';
import { useAfterHydration } from '@/hooks/useAfterHydration';
import { ENABLED_BEFORE_HYDRATION } from '@/config/beforeHydration';
import { useChangeBeforeHydration } from '@/hooks/useChangeBeforeHydration';
import { button } from '@/styles/button';
import {
  averageQpsText,
  estimate,
  formatPeakQps,
  parsePeakQps,
  parseShareOfDay,
  PEAK_QPS_TEXT_MAX_LENGTH,
  SHARE_OF_DAY_TEXT_MAX_LENGTH,
  queriesFromAddress,
  queriesFromPeak,
  searchWithQueries,
} from '@/estimator/estimate';
import {
  EXAMPLE_QUERIES_PER_MONTH,
  formatQueries,
  MAX_QUERIES_PER_MONTH,
  QUERIES_TEXT_MAX_LENGTH,
  queriesInWords,
  readQueries,
  SLIDER_MAX_QUERIES,
  SLIDER_MIN_QUERIES,
  SLIDER_QUERIES,
  sliderPositionOf,
  sliderQueriesAt,
} from '@/estimator/volume';
import * as styles from './Estimator.css';
import * as fieldStyles from './FormFields.css';
import { formatUsd } from '@/utils/format';

/**
 * What the visitor wrote, and nothing derived from it but the last volume that could be read (which
 * stays on screen while the field holds an entry that cannot).
 */
interface Typed {
  /** the queries field as written (by typing, the slider or the peak); null until then */
  queries: string | null;
  /** the last volume read from it, in queries per month; null until then */
  lastQueries: number | null;
  /** the peak fields as typed */
  peakQps: string;
  shareOfDay: string;
}

const NOTHING_TYPED: Typed = { queries: null, lastQueries: null, peakQps: '', shareOfDay: '' };

/** The peak fields read: the volume they make, or what is wrong with each. */
function readPeak(peakText: string, shareText: string) {
  const peakQps = parsePeakQps(peakText);
  const shareOfDay = parseShareOfDay(shareText);
  const queries = peakQps !== null && shareOfDay !== null ? queriesFromPeak(peakQps, shareOfDay) : null;
  return {
    peakQps,
    queries: queries !== null && queries <= MAX_QUERIES_PER_MONTH ? queries : null,
    peakProblem:
      peakText.trim() && peakQps === null
        ? copy.problems.peakQps
        : queries !== null && queries > MAX_QUERIES_PER_MONTH
          ? copy.problems.peakTooMany(formatQueries(MAX_QUERIES_PER_MONTH))
          : null,
    shareProblem: shareText.trim() && shareOfDay === null ? copy.problems.shareOfDay : null,
  };
}

/**
 * "Estimate your cost" in the pricing section (spec §2 section 3, §9): a volume written as people write
 * one, or dragged on a logarithmic slider, or made from a peak rate, gives the monthly and yearly cost at
 * the beta price and the average QPS, announced politely. The figures are derived on each render
 * (src/estimator/ (volume.ts, estimate.ts)); the volume goes into the address (`/?queries=12M#pricing`), and "Request
 * an invite with this estimate" hands it to the invite form's fields and draft.
 *
 * Prerendered with the 5M example, which the first render after hydration repeats: the fields are
 * read-only until then, so the section reads the same before hydration and without JavaScript, and a
 * shared address's volume is shown once hydrated. The slider is disabled in the HTML, and enabled as the
 * page paints by its first script (ENABLED_BEFORE_HYDRATION): on a slow phone the estimator hydrates
 * seconds later, and a move made before then is taken as the volume when it does. Until then the slider
 * has no `aria-valuetext`, which would still name the example's volume.
 */
export function Estimator() {
  const id = useId();
  const ids = { queries: `${id}-queries`, slider: `${id}-slider`, peakQps: `${id}-peak`, shareOfDay: `${id}-share` };
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useAfterHydration(() => true, false);
  const fromAddress = useAfterHydration(() => queriesFromAddress(location.search), null);
  const [typed, setTyped] = useState<Typed>(NOTHING_TYPED);

  const queries = typed.lastQueries ?? fromAddress ?? EXAMPLE_QUERIES_PER_MONTH;
  const figures = estimate(queries);
  const reading = typed.queries === null ? null : readQueries(typed.queries);
  const queriesProblem =
    reading && 'problem' in reading
      ? reading.problem === 'tooMany'
        ? copy.problems.tooMany(formatQueries(MAX_QUERIES_PER_MONTH))
        : copy.problems.unreadable
      : null;
  const peak = readPeak(typed.peakQps, typed.shareOfDay);

  /** The address carries the estimate, rewritten in place (no history entry, no scroll), to be shared. */
  const writeAddress = (volume: number) =>
    navigate({ pathname: location.pathname, search: searchWithQueries(location.search, volume), hash: '#pricing' }, { replace: true });

  const writeQueries = (text: string) => {
    const read = readQueries(text);
    const volume = 'queries' in read ? read.queries : null;
    setTyped((before) => ({ ...before, queries: text, lastQueries: volume ?? before.lastQueries }));
    if (volume !== null) writeAddress(volume);
  };

  const slide = (position: number) => {
    const volume = sliderQueriesAt(position);
    setTyped((before) => ({ ...before, queries: formatQueries(volume), lastQueries: volume }));
    writeAddress(volume);
  };

  const sliderPosition = sliderPositionOf(queries);
  const sliderRef = useChangeBeforeHydration(String(sliderPosition), (position) => slide(Number(position)));

  const writePeak = (change: Partial<Pick<Typed, 'peakQps' | 'shareOfDay'>>) => {
    const next = { ...typed, ...change };
    const volume = readPeak(next.peakQps, next.shareOfDay).queries;
    setTyped((before) => ({
      ...before,
      ...change,
      ...(volume === null ? {} : { queries: formatQueries(volume), lastQueries: volume }),
    }));
    if (volume !== null) writeAddress(volume);
  };

  const handOver = (event: MouseEvent<HTMLAnchorElement>) => {
    const values: Record<string, string> = { estimatedMonthlyQueries: formatQueries(queries) };
    if (peak.peakQps !== null) values.peakQPS = formatPeakQps(peak.peakQps);
    // taken: the form has its fields filled and focus; not yet on the page: the link goes to it, and the
    // form takes the values as it mounts
    if (handOverToInviteForm(values)) event.preventDefault();
  };

  return (
    // A form, as HTML's own <output> example is: it holds things to do, not text to read, so llms-full.txt
    // leaves it out (scripts/llmsFull.ts). It is never sent: Enter in a field does nothing once hydrated.
    <form className={styles.estimator} aria-labelledby={`${id}-title`} onSubmit={(event) => event.preventDefault()}>
      <h3 id={`${id}-title`} className={styles.title}>
        {copy.title}
      </h3>
      {/* In this order for reading and for the keyboard: on a narrow screen the result sits right under
          the volume it follows; on a wide one beside it (Estimator.css.ts) */}
      <div className={styles.columns}>
        <div className={styles.volume}>
          <div className={fieldStyles.field}>
            <label htmlFor={ids.queries} className={fieldStyles.label}>
              {copy.queries}
            </label>
            <p id={`${ids.queries}-hint`} className={fieldStyles.hint}>
              {copy.queriesHint}
            </p>
            <input
              id={ids.queries}
              name="queries"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              maxLength={QUERIES_TEXT_MAX_LENGTH}
              className={`${fieldStyles.input} ${styles.entry}`}
              value={typed.queries ?? formatQueries(queries)}
              onChange={(event) => writeQueries(event.currentTarget.value)}
              readOnly={!hydrated}
              aria-invalid={queriesProblem ? true : undefined}
              aria-describedby={`${ids.queries}-hint ${ids.queries}-problem`}
            />
            <p id={`${ids.queries}-problem`} className={styles.problem} aria-live="polite">
              {queriesProblem}
            </p>
          </div>
          <div className={fieldStyles.field}>
            <label htmlFor={ids.slider} className={fieldStyles.label}>
              {copy.slider(formatQueries(SLIDER_MIN_QUERIES), formatQueries(SLIDER_MAX_QUERIES))}
            </label>
            <input
              ref={sliderRef}
              id={ids.slider}
              type="range"
              className={styles.slider}
              min={0}
              max={SLIDER_QUERIES.length - 1}
              step={1}
              value={sliderPosition}
              onChange={(event) => slide(Number(event.currentTarget.value))}
              disabled={!hydrated}
              {...{ [ENABLED_BEFORE_HYDRATION]: '' }}
              suppressHydrationWarning
              aria-valuetext={hydrated ? `${queriesInWords(queries)} queries` : undefined}
            />
            <p className={styles.sliderEnds} aria-hidden="true">
              <span>{formatQueries(SLIDER_MIN_QUERIES)}</span>
              <span>{formatQueries(SLIDER_MAX_QUERIES)}</span>
            </p>
          </div>
        </div>
        <div className={styles.results}>
          <output htmlFor={Object.values(ids).join(' ')} className={styles.output} aria-live="polite" aria-atomic="true">
            <span className={styles.forVolume}>{copy.forVolume(formatQueries(figures.queriesPerMonth))}</span>{' '}
            <span className={styles.line}>
              <span className={styles.monthly}>{formatUsd(figures.monthlyUsd)}</span> {copy.perMonth}
            </span>{' '}
            <span className={styles.line}>
              <span className={styles.yearly}>{formatUsd(figures.yearlyUsd)}</span> {copy.perYear}
            </span>{' '}
            <span className={styles.line}>{averageQpsText(figures.averageQps)}</span>
          </output>
          <p className={fieldStyles.hint}>{copy.basis(formatUsd(PRICE_PER_1000_QUERIES_USD))}</p>
        </div>
        <fieldset className={styles.peak}>
          <legend className={fieldStyles.choiceLegend}>{copy.peakLegend}</legend>
          <div className={styles.peakFields}>
            <PeakField
              id={ids.peakQps}
              label={copy.peakQps}
              placeholder={copy.peakQpsPlaceholder}
              value={typed.peakQps}
              maxLength={PEAK_QPS_TEXT_MAX_LENGTH}
              problem={peak.peakProblem}
              readOnly={!hydrated}
              onChange={(peakQps) => writePeak({ peakQps })}
            />
            <PeakField
              id={ids.shareOfDay}
              label={copy.shareOfDay}
              placeholder={copy.shareOfDayPlaceholder}
              value={typed.shareOfDay}
              maxLength={SHARE_OF_DAY_TEXT_MAX_LENGTH}
              problem={peak.shareProblem}
              readOnly={!hydrated}
              onChange={(shareOfDay) => writePeak({ shareOfDay })}
            />
          </div>
          <p className={fieldStyles.hint}>{copy.peakNote}</p>
        </fieldset>
        <div className={styles.handOver}>
          <a href="#invite" className={button({ tone: 'primary' })} onClick={handOver}>
            {copy.handOver}
          </a>
        </div>
      </div>
    </form>
  );
}

/** A labelled text field of the peak way in, its problem told next to it. */
function PeakField(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  /** the longest text the field reads (src/estimator/ (volume.ts, estimate.ts)) */
  maxLength: number;
  problem: string | null;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  const { id, label, placeholder, value, maxLength, problem, readOnly, onChange } = props;
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className={`${fieldStyles.input} ${styles.entry}`}
        placeholder={placeholder}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        readOnly={readOnly}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-problem`}
      />
      <p id={`${id}-problem`} className={styles.problem} aria-live="polite">
        {problem}
      </p>
    </div>
  );
}
