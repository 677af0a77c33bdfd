declare module '@arco-design/color' {
  interface GenerateOptions {
    index?: number;
    dark?: boolean;
    list?: boolean;
    format?: 'hex' | 'rgb' | 'hsl';
  }
  export function generate(color: string, options: GenerateOptions & { list: true }): string[];
  export function generate(color: string, options?: GenerateOptions): string;
  export function getRgbStr(color: string): string;
}
