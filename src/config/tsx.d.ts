// tsx's main entry registers its ESM and CommonJS hooks when imported, and exports nothing
// (its package declares no types for it).
declare module 'tsx';
