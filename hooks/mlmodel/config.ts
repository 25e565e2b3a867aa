import { imagesOnlyConfig } from '../kit/index.js';
import { TFSERV_IMAGES } from '../tfserv/config.js';

export const MLMODEL_IMAGES = {
  // The same server image and variable as Tfserv's.
  'tensorflow-serving': TFSERV_IMAGES['tensorflow-serving'],
  // Needs sh, curl (which checks TLS certificates), tar and unzip.
  'model-downloader': 'curlimages/curl:8.11.1',
};

/** MLModel's settings: the server and downloader images (`spec.image` and `spec.downloadImage` win). */
export const mlmodelConfig = imagesOnlyConfig(MLMODEL_IMAGES);

export type MLModelConfig = { images: Record<keyof typeof MLMODEL_IMAGES, string> };
