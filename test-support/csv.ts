// A strict CSV reader for the export tests (issue 13, item 5): the one the browser uses too.
export { parseCsv } from "../contract/csv";
