/** A hook broke its own contract (a bug to fix, reported as 500, never as a deletion). */
export class HookContractError extends Error {
  override name = 'HookContractError';
}
