import { VARIANT } from '@/lib/env';

interface LogoProps {
  size?: number;
}

/** The console mark: a sun over a panel, or a cloud over a panel for the intranet build. */
export function Logo({ size = 32 }: LogoProps) {
  return (
    <img
      src={VARIANT === 'intranet' ? './favicon-intranet.svg' : './favicon.svg'}
      width={size}
      height={size}
      alt=""
      aria-hidden="true"
    />
  );
}
