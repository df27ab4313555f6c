// `zones-conformance mock`: the reference in a shop's house style (--profile), the same command as reference.
import './reference.ts';
