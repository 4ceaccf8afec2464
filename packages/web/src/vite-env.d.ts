/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_EDUPASS_PID?: string;
  readonly VITE_EDUPASS_APPID?: string;
  readonly VITE_EDUPASS_PRODUCT_CODE?: string;
  /** Where WeChat's authorize page is. @default the server's development provider */
  readonly VITE_WECHAT_AUTHORIZE_URL?: string;
  /** Where QQ's authorize page is. @default the server's development provider */
  readonly VITE_QQ_AUTHORIZE_URL?: string;
}
