/** The moderation list: its filters and page, the loaded rows, the selection; reloads when a filter or the page changes. */
import * as React from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import type { CommentStatus, ModerationList } from '../api-types';
import { PLUGIN_ID } from '../pluginId';

export interface ArticleFilter {
  documentId: string;
  title: string;
}

export interface Filters {
  status: CommentStatus | '';
  article: ArticleFilter | null;
  reported: boolean;
}

interface State extends Filters {
  page: number;
  result?: ModerationList;
  error: boolean;
  selected: string[];
}

type Action =
  | { type: 'filter'; filters: Partial<Filters> }
  | { type: 'page'; page: number }
  | { type: 'loaded'; result: ModerationList }
  | { type: 'failed' }
  | { type: 'toggleRow'; documentId: string }
  | { type: 'toggleAll' };

const initialState: State = { status: '', article: null, reported: false, page: 1, error: false, selected: [] };

const reducer = (state: State, action: Action): State => {
  switch (action.type) {
    // Any filter change goes back to the first page.
    case 'filter':
      return { ...state, ...action.filters, page: 1 };
    case 'page':
      return { ...state, page: action.page };
    case 'loaded':
      return { ...state, result: action.result, selected: [] };
    case 'failed':
      return { ...state, error: true };
    case 'toggleRow':
      return {
        ...state,
        selected: state.selected.includes(action.documentId)
          ? state.selected.filter((id) => id !== action.documentId)
          : [...state.selected, action.documentId],
      };
    case 'toggleAll': {
      const rows = state.result?.data ?? [];
      const allSelected = rows.length > 0 && state.selected.length === rows.length;
      return { ...state, selected: allSelected ? [] : rows.map((row) => row.documentId) };
    }
  }
};

/** `initial`: filters a link opened the page with (the side panel's article, a widget's pending comments). */
export const useModerationList = (pageSize: number, initial: Partial<Filters> = {}) => {
  const { get } = useFetchClient();
  const [state, dispatch] = React.useReducer(reducer, { ...initialState, ...initial });
  const { page, status, article, reported } = state;

  const load = React.useCallback(async () => {
    const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (status) params.set('status', status);
    if (article) params.set('article', article.documentId);
    if (reported) params.set('reported', 'true');
    try {
      const { data } = await get<ModerationList>(`/${PLUGIN_ID}/comments?${params}`);
      dispatch({ type: 'loaded', result: data });
    } catch {
      dispatch({ type: 'failed' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, status, article, reported]);

  React.useEffect(() => {
    load();
  }, [load]);

  return {
    ...state,
    reload: load,
    setFilters: (filters: Partial<Filters>) => dispatch({ type: 'filter', filters }),
    setPage: (next: number) => dispatch({ type: 'page', page: next }),
    toggleRow: (documentId: string) => dispatch({ type: 'toggleRow', documentId }),
    toggleAll: () => dispatch({ type: 'toggleAll' }),
  };
};
