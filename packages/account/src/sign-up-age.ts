/**
 * `@edupass/account/sign-up-age`: phone and e-mail sign-up with the age question's answer
 * (`birth_year_month`). An entry of its own, like `./badge`: the main entry stays within its size budget.
 */
export * from './calls/sign-up-age.ts';
