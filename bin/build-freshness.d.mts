// The types of build-freshness.mjs, which is plain JavaScript so that the launcher can run it first.
export declare const BUILT_FOLDERS: readonly string[];
export declare const BUILD_FOLDER: string;
export declare function builtModuleOf(root: string, source: string): string;
export declare function buildIsCurrent(root: string): boolean;
