// Drift mutants: the default style with one thing spelled otherwise where the specification is silent,
// or one defect that no answer shows. Each is a mock that differs from the reference in exactly one
// behaviour, so drift between the two must find exactly one difference, under the aspect named here
// (helpers/drift compares; selftest/drift-gallery.test.ts holds each to it).
import { type HouseStyle, houseStyles } from './styles.ts';

/** What drift compares at each step, and the rules' verdicts: where each mutant must be found. */
export type DriftAspect = 'status' | 'content-type' | 'shape' | 'value' | 'header' | 'error-body' | 'verdict';

export interface DriftMutant {
  name: string;
  aspect: DriftAspect;
  description: string;
  style: HouseStyle;
  /** A fault of faults.ts the mutant carries, for the differences only a rule's verdict shows. */
  fault?: string;
}

const reference = houseStyles.default!;

function mutant(name: string, aspect: DriftAspect, description: string, change: Partial<HouseStyle>, fault?: string) {
  return { name, aspect, description, style: { ...reference, ...change, name: `drift-${name}` }, fault };
}

export const driftMutants: DriftMutant[] = [
  mutant('create-200', 'status', 'A create answers 200 instead of 201.', { codes: { created: 200 } }),
  mutant('delete-204', 'status', 'A delete answers 204 with no body instead of 200 {}.', { codes: { deleted: 204 } }),
  mutant('second-delete-204', 'status', 'Deleting a zone that is gone answers 204 instead of 404.', {
    idempotentDelete: true,
  }),
  mutant(
    'unknown-filter-400',
    'status',
    'A filter by an unknown status is refused with 400 instead of an empty list.',
    {
      unknownStatusFilter: 'refused',
    },
  ),
  mutant('text-plain', 'content-type', 'Every JSON answer is sent as text/plain.', {
    contentType: 'text/plain; charset=utf-8',
  }),
  mutant('extra-field', 'shape', 'Every zone carries a "tags" list besides the documented fields.', {
    extraZoneFields: { tags: [] },
  }),
  mutant('error-key', 'error-body', 'Error bodies are {"error": ...} instead of {"errors": ...}.', {
    errorKey: 'error',
  }),
  mutant('total-count-header', 'header', 'The list answers an X-Total-Count header.', { totalCountHeader: true }),
  mutant('create-published', 'value', 'A new zone is published rather than draft.', {}, 'create-as-published'),
  mutant(
    'update-reaches-twins',
    'verdict',
    'An update also changes every other zone of the same name: each answer is as the service gives it, only a rule sees it.',
    {},
    'update-same-name-too',
  ),
];
