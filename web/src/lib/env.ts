/** Build-time configuration, read once. */

/** Prefix for every API call; empty means the same origin that served the console. */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '';

/** The intranet build shows the system title and its own icon instead of the Helio brand. */
export const VARIANT: 'default' | 'intranet' =
  import.meta.env.VITE_HELIO_VARIANT === 'intranet' ? 'intranet' : 'default';
