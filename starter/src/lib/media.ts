/** An image's srcset from the formats Strapi's upload plugin made (thumbnail, small, medium, large) and the original. */
import { mediaUrl } from './config';

interface Format { url: string; width?: number | null; height?: number | null }
export interface Media extends Format { alternativeText?: string | null; formats?: Record<string, unknown> | null }

export function responsive(media: Media) {
  const formats = Object.values(media.formats ?? {}) as Format[];
  const all = [...formats, media].filter((f): f is Format & { width: number } => typeof f?.url === 'string' && typeof f.width === 'number');
  const unique = [...new Map(all.map((f) => [f.width, f])).values()].sort((a, b) => a.width - b.width);
  return {
    src: mediaUrl(media.url),
    srcset: unique.map((f) => `${mediaUrl(f.url)} ${f.width}w`).join(', ') || undefined,
    width: media.width ?? undefined,
    height: media.height ?? undefined,
    alt: media.alternativeText ?? '',
  };
}
