// The version of the adjudication this engine performs. Games name it when they are created, and
// phones running a different one say so instead of guessing. Bump it whenever the same position
// and orders could adjudicate to different bytes (a rule choice, a result's shape, a reason).
export const RULES_ENGINE_VERSION = 'pacto-rules/1';
