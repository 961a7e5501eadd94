export declare function t(): void;
