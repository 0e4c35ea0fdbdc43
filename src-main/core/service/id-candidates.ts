// The new id in a create's answer: the service's message may name it ("Customer object created
// with id …"), in a form the spec does not show, so every token that could be one is offered.

// Words of the service's messages that are long enough to look like ids.
const COMMON_WORDS = new Set(
  'object objects created create customer customers successfully success updated update deleted delete record records inserted insert saved added removed identifier message route routes territory territories field fields custom customfields account please server service request'.split(
    ' ',
  ),
);

/** Tokens of a create message that may be the new id; the engine confirms each with a GET. */
export function extractIdCandidates(message: string): string[] {
  const tokens = message.match(/[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?/g) ?? [];
  // A number of any length may be an AUTO_INCREMENT id ("Customer created with id 42").
  const candidates = tokens.filter(
    (t) =>
      t.length <= 40 && (/^\d+$/.test(t) || (t.length >= 6 && !COMMON_WORDS.has(t.toLowerCase()))),
  );
  // Tokens with a digit first: ids usually have one, words rarely do.
  const ranked = [
    ...candidates.filter((t) => /\d/.test(t)),
    ...candidates.filter((t) => !/\d/.test(t)),
  ];
  return [...new Set(ranked)];
}
