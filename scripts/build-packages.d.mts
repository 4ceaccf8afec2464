export declare const SDK_PACKAGES: string[];
export declare const PRIVATE_PACKAGES: string[];
export declare const buildPackage: (name: string) => void;
