/**
 * A realistic school for the address-book stand-ins (address-book-peers.ts): by default 6 grades of 5
 * classes of 40 pupils (1,200 pupils), two guardians for two pupils in three and one for the third
 * (2,000 guardians; every tenth without a mobile, as a third-party app reads them), 60 teachers (each
 * class a head teacher and two subject teachers). Tests change it between syncs: a pupil moves class,
 * leaves, a grade graduates.
 */

export interface BookGrade {
  id: number;
  name: string;
  /** 1–6 小学一年级 … 六年级 (WeCom's standard grade). */
  standardGrade: number;
  registerYear: number;
  graduated: boolean;
}

export interface BookClassRow {
  id: number;
  gradeId: number;
  name: string;
  headTeacher: string;
  teachers: string[];
}

export interface SchoolBook {
  name: string;
  grades: BookGrade[];
  classes: BookClassRow[];
  pupils: { id: string; name: string; classId: number }[];
  guardians: { id: string; pupilId: string; relation: string; mobile: string | null }[];
  teachers: { id: string; name: string; mobile: string; email: string }[];
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
const GIVEN = '子涵浩然欣怡宇轩梓萱雨桐思远嘉琳俊杰语嫣博文雅琪';
const GRADE_NAMES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级'];
const CLASS_NAMES = ['一班', '二班', '三班', '四班', '五班'];

/** A Chinese name from a number: three characters, a different one for each number below 11,520. */
export const personName = (n: number) => {
  const surname = SURNAMES[n % SURNAMES.length] as string;
  const a = GIVEN[Math.floor(n / SURNAMES.length) % GIVEN.length] as string;
  const b = GIVEN[Math.floor(n / (SURNAMES.length * GIVEN.length)) % GIVEN.length] as string;
  return `${surname}${a}${b}`;
};

export interface SchoolOptions {
  name?: string;
  grades?: number;
  classesPerGrade?: number;
  pupilsPerClass?: number;
  /** Phones of the teachers, in order (the first ones get accounts in tests); others get made-up ones. */
  teacherPhones?: string[];
  /** The first digits of guardians' mobiles (so two schools in one run never share one). */
  mobilePrefix?: string;
  year?: number;
}

export const schoolBook = (options: SchoolOptions = {}): SchoolBook => {
  const grades = options.grades ?? 6;
  const perGrade = options.classesPerGrade ?? 5;
  const perClass = options.pupilsPerClass ?? 40;
  const year = options.year ?? 2026;
  const prefix = options.mobilePrefix ?? '1390';
  const book: SchoolBook = {
    name: options.name ?? '实验小学',
    grades: [],
    classes: [],
    pupils: [],
    guardians: [],
    teachers: [],
  };
  const teacherCount = grades * perGrade * 2;
  for (let t = 0; t < teacherCount; t++) {
    book.teachers.push({
      id: `teacher${t + 1}`,
      name: `${personName(t + 5000)}老师`.slice(0, 5),
      mobile: options.teacherPhones?.[t] ?? `1370${String(t).padStart(7, '0')}`,
      email: '',
    });
  }
  let guardianNo = 0;
  for (let g = 0; g < grades; g++) {
    const gradeId = 100 + g;
    book.grades.push({
      id: gradeId,
      name: GRADE_NAMES[g] ?? `${g + 1}年级`,
      standardGrade: g + 1,
      registerYear: year - g,
      graduated: false,
    });
    for (let c = 0; c < perGrade; c++) {
      const classNo = g * perGrade + c;
      const classId = 1000 + classNo;
      book.classes.push({
        id: classId,
        gradeId,
        name: `${GRADE_NAMES[g] ?? `${g + 1}年级`}${CLASS_NAMES[c] ?? `${c + 1}班`}`,
        headTeacher: `teacher${classNo + 1}`,
        teachers: [`teacher${((classNo + 7) % teacherCount) + 1}`, `teacher${((classNo + 31) % teacherCount) + 1}`],
      });
      for (let p = 0; p < perClass; p++) {
        const n = classNo * perClass + p;
        const pupilId = `s${String(n + 1).padStart(5, '0')}`;
        book.pupils.push({ id: pupilId, name: personName(n), classId });
        const relations = n % 3 === 2 ? ['妈妈'] : n % 6 === 1 ? ['爸爸', '奶奶'] : ['爸爸', '妈妈'];
        for (const relation of relations) {
          guardianNo++;
          book.guardians.push({
            id: `p${guardianNo}`,
            pupilId,
            relation,
            mobile: guardianNo % 10 === 0 ? null : `${prefix}${String(guardianNo).padStart(11 - prefix.length, '0')}`,
          });
        }
      }
    }
  }
  return book;
};

/** The pupils of a class, in the book's order. */
export const pupilsOfClass = (book: SchoolBook, classId: number) => book.pupils.filter((p) => p.classId === classId);
