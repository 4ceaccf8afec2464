/** The education tests' shared steps live in the test kit (the console's browser tests use them too). */
export * from '@edupass/test-kit/edu-steps';
