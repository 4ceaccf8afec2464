/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_EDUPASS_PID?: string;
  readonly VITE_EDUPASS_APPID?: string;
  readonly VITE_EDUPASS_PRODUCT_CODE?: string;
}
