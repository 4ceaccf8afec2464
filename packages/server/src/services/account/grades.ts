import type { GradeStage } from '@edupass/protocol';

const CHINESE_NUMERALS = ['一', '二', '三', '四', '五', '六'];

const stage = (name: string, first: number, count: number, label: (i: number) => string): GradeStage => ({
  stage: name,
  gradeList: Array.from({ length: count }, (_, i) => ({ grade: first + i, desc: label(i), recommended: false })),
});

/** School grades 1–12 by stage, as the grade picker shows them. */
export const GRADE_LIST: GradeStage[] = [
  stage('小学', 1, 6, (i) => `${CHINESE_NUMERALS[i]}年级`),
  stage('初中', 7, 3, (i) => `初${CHINESE_NUMERALS[i]}`),
  stage('高中', 10, 3, (i) => `高${CHINESE_NUMERALS[i]}`),
];

const GRADE_DESC = new Map(GRADE_LIST.flatMap((s) => s.gradeList.map((g) => [g.grade, g.desc] as const)));

export const gradeDesc = (grade: number | null): string => (grade === null ? '' : (GRADE_DESC.get(grade) ?? ''));

export const isKnownGrade = (grade: number) => GRADE_DESC.has(grade);
