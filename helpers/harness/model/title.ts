// How a model-based test is told from an example test of the same rule, by its title alone: reports,
// the verdict and the gallery read titles, and this module loads nothing of vitest, so the launcher can use it.
/** The end of every model-based test's title. */
export const MODEL_TEST_LABEL = 'sequences of operations agree with the model';

export function isModelTestTitle(title: string): boolean {
  return title.endsWith(`: ${MODEL_TEST_LABEL}`);
}
