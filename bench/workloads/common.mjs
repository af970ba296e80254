// Shared helpers for workload definitions.
import { join } from 'node:path';
import { SHARE_JAVA } from '../lib/paths.mjs';

export const jars = (...names) => names.map((n) => (n.startsWith('/') ? n : join(SHARE_JAVA, `${n}.jar`)));
export const DOCBOOK_XSL = '/usr/share/xml/docbook/stylesheet/docbook-xsl';
export const XALAN_CP = jars('xalan2', 'serializer', 'xercesImpl', 'xml-apis');
