import { buildUrl } from '@/lib/api-client';

/** A scheduled report's download link found in a message's text (internal/report/worker.go). */
export interface ReportLink {
  /** The file's address, through the API base. */
  href: string;
  /** When the link stops working (the message gives it in UTC), or null when it does not say. */
  expires: Date | null;
  /** The message's text without the bare address. */
  text: string;
}

const LINK = /\s*[:：]?\s*(\/v2\/report\/file\/[0-9a-f]{32,64})\s*/;
const EXPIRES = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/;

/** The report link in a message's content, or null when it has none. */
export function reportLink(content: string): ReportLink | null {
  const link = LINK.exec(content);
  if (!link) {
    return null;
  }
  const when = EXPIRES.exec(content);
  const expires = when ? new Date(`${when[1]}T${when[2]}:00Z`) : null;
  const text = (content.slice(0, link.index) + ' ' + content.slice(link.index + link[0].length)).trim();
  return { href: buildUrl(link[1]!), expires: expires && !Number.isNaN(expires.getTime()) ? expires : null, text };
}

/** Whether the link has stopped working at `now`. */
export function expired(link: ReportLink, now: Date): boolean {
  return link.expires !== null && link.expires.getTime() <= now.getTime();
}
