export const REFERENCE_DIR: string;
export function writeExtensionReference(out?: string): Promise<void>;
