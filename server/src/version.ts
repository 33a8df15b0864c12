// The version of this toolkit (kept in step with server/package.json by a test).
export const VERSION = '0.1.0';
