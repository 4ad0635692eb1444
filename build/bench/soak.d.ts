/** Runs the soak for `minutes` and prints its figures. */
export declare function runSoak(minutes: number): Promise<void>;
