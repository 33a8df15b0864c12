// Rendering a pipe's templates at run time: the pipe's templating style, and render failures as
// mthdsls.pipe.template_render_failed naming the pipe and the key that holds the template.

import type { PipeDecl } from '../../../language/model.js';
import type { TemplateCategory } from '../../../language/spec/values.js';
import { defaultStyle, renderTemplate, TAG_STYLES, TemplateError, TEXT_FORMATS, type InsertedImage, type TagStyle, type TemplatingStyle, type TextFormat } from '../../../language/templates/render.js';
import { Refusal } from '../../refusal.js';
import type { Attachment } from '../../providers/types.js';

/** The style a pipe declares (`templating_style`: a tag style, or `{ tag_style, text_format }`). */
export function styleOf(raw: unknown, category: TemplateCategory): TemplatingStyle {
  const base = defaultStyle(category);
  if (typeof raw === 'string' && (TAG_STYLES as readonly string[]).includes(raw)) return { tagStyle: raw as TagStyle, textFormat: base.textFormat };
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const t = raw as Record<string, unknown>;
    const style = { ...base };
    if (typeof t['tag_style'] === 'string' && (TAG_STYLES as readonly string[]).includes(t['tag_style'])) style.tagStyle = t['tag_style'] as TagStyle;
    if (typeof t['text_format'] === 'string' && (TEXT_FORMATS as readonly string[]).includes(t['text_format'])) style.textFormat = t['text_format'] as TextFormat;
    return style;
  }
  return base;
}

export interface Rendered {
  text: string;
  images: InsertedImage[];
}

export function render(
  pipe: PipeDecl,
  key: string,
  source: string,
  context: Record<string, unknown>,
  category: TemplateCategory,
  options: { style?: TemplatingStyle; images?: InsertedImage[]; shorthands?: boolean } = {},
): Rendered {
  try {
    const renderOptions: Parameters<typeof renderTemplate>[2] = { category };
    if (options.style) renderOptions.style = options.style;
    if (options.images) renderOptions.images = options.images;
    if (options.shorthands !== undefined) renderOptions.shorthands = options.shorthands;
    return renderTemplate(source, context, renderOptions);
  } catch (error) {
    if (error instanceof TemplateError) {
      throw new Refusal('mthdsls.pipe.template_render_failed', { pipe: pipe.code, template: key, finding: error.message });
    }
    throw error;
  }
}

export function attachmentsOf(images: readonly InsertedImage[]): Attachment[] {
  return images.map((i) => {
    const a: Attachment = { index: i.index, url: i.url };
    if (typeof i.content['mime_type'] === 'string') a.mimeType = i.content['mime_type'];
    return a;
  });
}
