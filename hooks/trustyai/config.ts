import { imagesOnlyConfig } from '../kit/index.js';

export const TRUSTYAI_IMAGES = {
  'trustyai-service': 'quay.io/trustyai/trustyai-service:latest',
};

/** TrustyAIService's settings: its image (`MODELHOOKS_IMAGE_TRUSTYAI_SERVICE`). */
export const trustyaiConfig = imagesOnlyConfig(TRUSTYAI_IMAGES);

export type TrustyAIConfig = { images: Record<keyof typeof TRUSTYAI_IMAGES, string> };
