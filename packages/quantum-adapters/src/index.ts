export const placeholderVersion = '0.1.0';
