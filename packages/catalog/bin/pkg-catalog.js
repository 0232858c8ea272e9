#!/usr/bin/env node
import { cliModuleUrl } from "@pkg/common/bin-entry";

const { main } = await import(cliModuleUrl(import.meta.url).href);
await main(process.argv);
