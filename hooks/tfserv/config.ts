import { imagesOnlyConfig } from '../kit/index.js';

export const TFSERV_IMAGES = {
  'tensorflow-serving': 'tensorflow/serving:2.18.0',
};

/** Tfserv's settings: the default server image (`MODELHOOKS_IMAGE_TENSORFLOW_SERVING`; `spec.image` wins). */
export const tfservConfig = imagesOnlyConfig(TFSERV_IMAGES);

export type TfservConfig = { images: Record<keyof typeof TFSERV_IMAGES, string> };
