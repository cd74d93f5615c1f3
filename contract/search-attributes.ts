// Custom search attributes that let the Temporal UI filter reconciliations, for example
// `ResourceKind = "VPC" AND Ready != "True"`. The dev server registers them at start.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ResourceKindKey = defineSearchAttributeKey('ResourceKind', SearchAttributeType.KEYWORD);
export const ResourceNamespaceKey = defineSearchAttributeKey('ResourceNamespace', SearchAttributeType.KEYWORD);
export const ResourceNameKey = defineSearchAttributeKey('ResourceName', SearchAttributeType.KEYWORD);
/** "True", "False" or "Unknown", as in the Ready condition. */
export const ReadyKey = defineSearchAttributeKey('Ready', SearchAttributeType.KEYWORD);
/** "True", "False" or "Unknown", as in the Synced condition. */
export const SyncedKey = defineSearchAttributeKey('Synced', SearchAttributeType.KEYWORD);

export const ALL_SEARCH_ATTRIBUTE_KEYS = [ResourceKindKey, ResourceNamespaceKey, ResourceNameKey, ReadyKey, SyncedKey];

export const SEARCH_ATTRIBUTE_NAMES = ALL_SEARCH_ATTRIBUTE_KEYS.map((key) => key.name);

const cliTypeName: Record<string, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `ResourceKind=Keyword`: the form `temporal server start-dev --search-attribute` takes. */
export const SEARCH_ATTRIBUTE_FLAGS = ALL_SEARCH_ATTRIBUTE_KEYS.map((key) => `${key.name}=${cliTypeName[key.type]}`);
