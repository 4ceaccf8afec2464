export declare const SOURCE_CONDITION: '@edupass/source';
export declare const ESBUILD_CONDITIONS: string[];
