/**
 * School grades and their stages in the page's language: the server names them in Chinese (`desc`,
 * `stage`), which an English page must not show. A grade the texts do not know keeps the server's name.
 */
import type { GradeStage } from '@edupass/protocol';
import type { TextKey } from '../../i18n/locales/en.ts';

type Translate = (key: TextKey) => string;

const STAGES: Record<number, TextKey> = {
  1: 'gradeStage.primary',
  7: 'gradeStage.junior',
  10: 'gradeStage.senior',
};

export const gradeName = (t: Translate, grade: number, desc: string): string => {
  const key = `grade.${grade}` as TextKey;
  const name = t(key);
  return name === key ? desc : name;
};

/** A stage is known by its first grade. */
export const stageName = (t: Translate, stage: GradeStage): string => {
  const key = STAGES[stage.gradeList[0]?.grade ?? 0];
  return key ? t(key) : stage.stage;
};
