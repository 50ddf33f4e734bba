declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*/standalone.js" {
  const text: string;
  export default text;
}
// Scripts the browser runs, served as text (the project's own types hold no DOM).
declare module "*.browser.js" {
  const text: string;
  export default text;
}
