// Types for what the layer-guard test imports from eslint.config.js.
import type { Linter } from 'eslint';

export const PURE_FILES: string[];
export const FEATURE_LAYERS: string[];
export const SHARED_TYPES_FILE: string;
declare const config: Linter.Config[];
export default config;
