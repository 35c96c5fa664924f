/**
 * The how-to videos, recorded from the app itself (`npm run videos:record`, infra/videos/record.ts)
 * and played by the web app, which is why the list lives here, below both. Each is served as
 * /videos/<id>.webm with captions /videos/<id>.<language>.vtt written from the same texts as the
 * transcript (training namespace, `videos.items.<id>.steps`).
 */
export const VIDEOS = ['gettingStarted', 'householdProfile', 'uploadingDocuments', 'recertification', 'eSigning'] as const;
export type VideoId = (typeof VIDEOS)[number];

export const videoUrl = (id: VideoId) => `/videos/${id}.webm`;
export const captionsUrl = (id: VideoId, language: string) => `/videos/${id}.${language}.vtt`;

export function toVideoId(value: string | null): VideoId {
  return (VIDEOS as readonly (string | null)[]).includes(value) ? (value as VideoId) : 'gettingStarted';
}
