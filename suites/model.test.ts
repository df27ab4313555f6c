// The model-based suite: random sequences of creates (with and without a requested status), updates
// (name, coverage and status, alone and together, often of one zone in a row), deletes (booked and
// not, where the booking hooks allow) and list reads (unfiltered and by each status), every answer
// checked against what the specification documents. Sequences that break a rule are shrunk to the
// shortest, and each rule reports by its own test (helpers/harness/model/model-tests.ts says how).
import { currentTarget } from '../helpers/harness/current-target.ts';
import { checkModelRule } from '../helpers/harness/model/model-tests.ts';
import { MODEL_TEST_LABEL } from '../helpers/harness/model/title.ts';
import { modelRules } from '../helpers/harness/model/top-up.ts';
import { ruleCases } from '../helpers/harness/rule-test.ts';

// One of them plays the sequences and the others read its outcome. Each title says it is model-based,
// so that the verdict lets it add a failure to the rule's example tests, never take their verdict away.
for (const id of modelRules(currentTarget()))
  ruleCases(id, [{ label: MODEL_TEST_LABEL, check: (context) => checkModelRule(id, context) }]);
