import { expired, reportLink } from './report-link';

const token = 'ab'.repeat(24);

describe('report links in messages', () => {
  it('finds the address, its expiry (UTC) and the text around it, in any language', () => {
    const en = reportLink(`Download report-2026-11.xlsx (link valid until 2026-11-30 08:15 UTC): /v2/report/file/${token}`)!;
    expect(en.href).toBe(`/v2/report/file/${token}`);
    expect(en.expires?.toISOString()).toBe('2026-11-30T08:15:00.000Z');
    expect(en.text).toBe('Download report-2026-11.xlsx (link valid until 2026-11-30 08:15 UTC)');
    const zh = reportLink(`下载 报表.pdf（链接有效期至 UTC 2026-12-01 00:00）：/v2/report/file/${token}`)!;
    expect(zh.href).toBe(`/v2/report/file/${token}`);
    expect(zh.expires?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(zh.text).toBe('下载 报表.pdf（链接有效期至 UTC 2026-12-01 00:00）');
  });

  it('says when the link has stopped working', () => {
    const link = reportLink(`Download x.csv (link valid until 2026-11-30 08:15 UTC): /v2/report/file/${token}`)!;
    expect(expired(link, new Date('2026-11-30T08:14:59Z'))).toBe(false);
    expect(expired(link, new Date('2026-11-30T08:15:00Z'))).toBe(true);
  });

  it('leaves messages without a report link alone', () => {
    expect(reportLink('INV-07 · 逆变器故障')).toBeNull();
    expect(reportLink('see /v2/report/file/not-a-token')).toBeNull();
  });
});
