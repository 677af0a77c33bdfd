// Arco's per-component style entries are side-effect modules with no exports.
declare module '@arco-design/web-react/es/*/style/css.js';
