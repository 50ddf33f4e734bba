declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*/standalone.js" {
  const text: string;
  export default text;
}
