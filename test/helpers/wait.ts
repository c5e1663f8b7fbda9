/**
 * The one `sleep` of the tests. Tests wait on conditions (eventually, waitFor),
 * not on time; sleep is for pacing input and polling loops, never for letting
 * something happen.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
